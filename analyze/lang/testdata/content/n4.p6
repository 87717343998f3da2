my $x = 1;
sub f { }
