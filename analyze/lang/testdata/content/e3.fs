: sq dup * ;
