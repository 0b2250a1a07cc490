/**
 * **Match case** and **Whole words**: the two switches of the find bar, also in the search-all
 * dialog (same names, same meaning). `block` is the CSS block of the place they sit in: the
 * buttons get `<block>__option` and the "ab" mark `<block>__whole-words`.
 */
import type { FindOptions } from "./textMatches.ts";

export function FindOptionSwitches({
  options,
  onChange,
  block,
}: {
  options: FindOptions;
  onChange(next: FindOptions): void;
  block: string;
}) {
  return (
    <>
      <button
        type="button"
        className={`${block}__option`}
        aria-pressed={options.matchCase}
        title="Match case"
        onClick={() => onChange({ ...options, matchCase: !options.matchCase })}
      >
        <span aria-hidden="true">Aa</span>
        <span className="visually-hidden">Match case</span>
      </button>
      <button
        type="button"
        className={`${block}__option`}
        aria-pressed={options.wholeWords}
        title="Whole words"
        onClick={() => onChange({ ...options, wholeWords: !options.wholeWords })}
      >
        <span aria-hidden="true" className={`${block}__whole-words`}>
          ab
        </span>
        <span className="visually-hidden">Whole words</span>
      </button>
    </>
  );
}
