let x = 1
open System
