<?php
// Rule: PHP "{$…}" holds code (method arguments may hold any expression).
// cognitive: msg 1
function msg($o, $a) {
    return "x {$o->f($a ? 1 : 2)} y"; // +1 ?:
}
