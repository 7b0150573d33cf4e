/** Checkboxes over a fixed list under one legend: the ids ticked are the value. */
export function CheckGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: readonly { id: T; name: string }[];
  value: readonly T[];
  onChange(value: T[]): void;
}) {
  return (
    <fieldset className="check-group">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.id} className="check-option">
          <input
            type="checkbox"
            checked={value.includes(option.id)}
            onChange={(e) =>
              onChange(
                e.target.checked ? [...value, option.id] : value.filter((v) => v !== option.id),
              )
            }
          />
          {option.name}
        </label>
      ))}
    </fieldset>
  );
}
