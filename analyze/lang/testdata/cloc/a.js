// c
/** doc
 * more
 */
const a = "//x"; // t
const b = `tpl
/* in tpl */`;
function g() {

  return /re\/x/;
}
