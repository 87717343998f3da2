(define (f x) x)
