(defun f (x) x)
; c
