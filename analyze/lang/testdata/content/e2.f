      program x
      end 
