#!/usr/bin/env python3
"""Module doc.

More.
"""
import os  # trailing

# comment
def f(x):
    '''one-line doc'''
    s = "/* odd */"
    return x
