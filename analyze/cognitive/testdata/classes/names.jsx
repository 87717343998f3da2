// Rule: JSX attributes named like keywords are markup.
// cognitive: Label 0
function Label({id}) {
  return <label for={id} if="x">{id}</label>;
}
