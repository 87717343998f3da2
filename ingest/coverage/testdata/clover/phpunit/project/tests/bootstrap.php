<?php

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Acme\\Shop\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        require __DIR__ . '/../src/' . substr($class, strlen($prefix)) . '.php';
    }
});
