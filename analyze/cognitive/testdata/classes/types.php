<?php
// Rule: PHP nullable types (?int) are types.
// cognitive: nullable 0
function nullable(?int $a, ?string $b): ?int {
    return $a;
}
