#!/usr/bin/foo
x
