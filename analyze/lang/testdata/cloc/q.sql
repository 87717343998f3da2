-- c
SELECT 1; -- t
/* b
 */
SELECT 2;
