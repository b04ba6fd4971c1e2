// Paging of a list endpoint that answers one page and its `total` (limit, offset): "Previous" and
// "Next", and which rows of how many are shown (announced politely to screen readers).
export function Pager({ label, offset, limit, shown, total, onOffset }: { label: string; offset: number; limit: number; shown: number; total: number; onOffset: (offset: number) => void }) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span role="status" data-testid={`${label.toLowerCase().replace(/\W+/g, '-')}-range`}>
        {total === 0 ? 'None' : `${offset + 1}–${offset + shown} of ${total}`}
      </span>
      <button type="button" disabled={offset + shown >= total} onClick={() => onOffset(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
