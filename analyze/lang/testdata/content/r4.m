BeginPackage["x`"]
f[x_] := x
