// Hand-scored fixture for JSX (docs/analyze.md): markup is not logic; the
// expressions inside it are.
import React from "react";

// cognitive: List 3 params 1 nesting 1
export function List({ items, filter }) {
  if (!items) { // +1
    return <p className="empty">Nothing here, isn't it?</p>;
  }
  return (
    <ul>
      {items.map((it) => ( // nesting +1
        <li key={it.id}>{it.done ? <s>{it.name}</s> : it.name}</li> // +2
      ))}
      {filter && <Filter value={filter} />} {/* 0: a JSX short-circuit (sonarjs' rule) */}
      {items.length > 9 || <More />} {/* 0 */}
    </ul>
  );
}

// cognitive: Toggle 3 params 1
const Toggle = (props) => {
  const [on, setOn] = React.useState(false);
  const onClick = () => { // nesting +1
    if (props.disabled) return; // +2
    setOn(!on);
  };
  return <button onClick={onClick}>{on ? "on" : "off"}</button>; // +1
};

// cognitive: Status 4 params 1 nesting 2
function Status({ code }) {
  switch (code) { // +1
    case 200:
      return <span>OK</span>;
    default:
      if (code >= 500) { // +2
        return <span className="err">Server error: {code}</span>;
      }
  }
  return <span>{code < 400 ? "fine" : "client error"}</span>; // +1
}

// cognitive: pattern 2 params 1
function pattern(s) {
  const re = /[({'"]+$/; // a regular expression: its brackets and quotes are not code
  return re.test(s) && s.length > 2 || s === "x"; // && +1, || +1
}

// cognitive: Loader 1 params 1 nesting 0
export default function Loader({ load }) {
  React.useEffect(() => { // a lambda: nesting +1, but no increment of its own
    load().then((r) => r.ok && console.log("loaded")); // && +1 (lambdas do not add to it)
  }, [load]);
  return null;
}
