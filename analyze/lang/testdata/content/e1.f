: sq dup * ;
: cube dup sq * ;
