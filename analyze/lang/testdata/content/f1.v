module m(input a);
endmodule
