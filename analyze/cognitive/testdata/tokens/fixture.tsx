// Hand-scored fixture for TSX (docs/analyze.md).
import * as React from "react";

type Props = { rows: Array<{ id: number; name?: string }>; max?: number };

// cognitive: Table 8 params 1 nesting 3
export function Table({ rows, max }: Props): JSX.Element {
  const shown: Array<{ id: number; name?: string }> = [];
  outer: for (const r of rows) { // +1
    for (const c of r.name ?? "") { // +2
      if (c === "!") continue outer; // +3 +1
    }
    shown.push(r);
  }
  return (
    <table>
      {shown.map((r) => <tr key={r.id}><td>{r.name ?? "?"}</td></tr>)}
      {max !== undefined && shown.length > max && <caption>more</caption>} {/* +1 */}
    </table>
  );
}

// cognitive: Generic 3 params 2
function Generic<T extends { id: number }>(items: T[], pick: (t: T) => boolean): T | null {
  for (const it of items) { // +1
    if (pick(it)) return it; // +2
  }
  return null;
}

interface Handlers {
  onClick: (e: MouseEvent) => void; // a function type: no function
  onKey?(e: KeyboardEvent): boolean;
}

type Render = (p: Props) => JSX.Element | null; // a function type too

// cognitive: isWide 1 params 1
export const isWide = (p: Props): boolean => (p.max ?? 0) > 10 || p.rows.length > 10; // || +1

// cognitive: Row 5 params 1 nesting 1
const Row: React.FC<{ r: { id: number; done: boolean } }> = ({ r }) => {
  const label = r.done ? "done" : "todo"; // +1
  try {
    return <tr className={label}>{r.id > 0 && <td>{r.id}</td>}</tr>; // && +1
  } catch (e) { // +1
    return r.done ? null : <tr />; // +2 (nesting 1)
  }
};

class Panel extends React.Component<Props> {
  // cognitive: render 3 params 0 nesting 1
  render() {
    const { rows } = this.props;
    if (rows.length === 0) { // +1
      return null;
    }
    return <div>{rows.map((r) => r.name ? <Row key={r.id} r={{ id: r.id, done: false }} /> : null)}</div>; // a lambda (nesting +1): ?: +2
  }
}
