// A small module with deliberate findings for the ESLint SARIF fixture.
import { render } from "./render.js";

const unusedCount = 3;

export function Logo(props) {
  return <img src={props.src} />;
}

export function Button() {
  return <div onClick={() => render("clicked")}>Click me</div>;
}

export function grade(score) {
  if (score == null) {
    return "none";
  } else if (score > 90) {
    return "A";
  } else if (score > 80) {
    return "B";
  }
  return "C";
}

export function run(code) {
  // eslint-disable-next-line no-console
  console.log("running");
  return eval(code);
}
