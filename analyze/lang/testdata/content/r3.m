:- module m.
