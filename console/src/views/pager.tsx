// Paging of a list endpoint that answers one page and its `total` (limit, offset): "Previous" and
// "Next", and which rows of how many are shown (announced politely to screen readers). A total
// that is only a lower bound (`exact` false: the API stopped counting) reads "of 10,000+".
export function Pager({ label, offset, limit, shown, total, exact = true, onOffset }: {
  label: string; offset: number; limit: number; shown: number; total: number; exact?: boolean; onOffset: (offset: number) => void;
}) {
  const more = exact ? offset + shown < total : shown === limit;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span role="status" data-testid={`${label.toLowerCase().replace(/\W+/g, '-')}-range`}>
        {total === 0 ? 'None' : `${offset + 1}–${offset + shown} of ${total.toLocaleString('en-US')}${exact ? '' : '+'}`}
      </span>
      <button type="button" disabled={!more} onClick={() => onOffset(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
