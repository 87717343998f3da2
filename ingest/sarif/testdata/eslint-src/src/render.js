// render writes a message to the page.
export function render(msg) {
  const el = document.getElementById("out");
  el.textContent = msg;
  debugger;
}

function helper() {
  return undefinedThing + 1;
}
