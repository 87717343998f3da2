<?php
// Rule: PHP members after -> and ::, named arguments, declared names are not keywords.
// cognitive: members 0
function members($o) {
    $o->if(); $o->for; $o?->while; A::class; A::for();
    return g(array: $o, if: 1, for: 2);
}
// cognitive: match 0
function match($x) {
    return 1;
}
