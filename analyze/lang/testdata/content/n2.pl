use strict;
my $x = 1;
