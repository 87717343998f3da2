<?php
// Rule: nested conditional expressions nest (parenthesised, as PHP 8 requires).
// cognitive: pick 3
function pick($a, $b) {
    return $a ? 1 : ($b ? 2 : 3); // +1, +2
}
