<?php
# hash
// slashes
$a = 1; /* b */
?>
