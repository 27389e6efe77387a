/** Where a page will be while its code (or, in its prerendered shell, the app) loads. */
export function PageLoading() {
  return <p className="page-loading">Loading the page…</p>;
}
