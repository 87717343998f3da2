# comment
#
#x is code
let x = 1
###
block
###
