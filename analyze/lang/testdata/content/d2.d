import std.stdio;
void main() {}
