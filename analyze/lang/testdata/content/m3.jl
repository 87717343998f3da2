(defun f (x) x)
