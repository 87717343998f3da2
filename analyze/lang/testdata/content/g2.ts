let x = 1;
