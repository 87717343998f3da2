#!/bin/sh
echo {$x}
if [ 1 ]; then echo; fi
