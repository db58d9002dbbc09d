// The dashboard's only script (served from this host; the pages work without it):
// confirm before destructive forms, copy a new secret, "Back" links.
document.addEventListener('submit', (e) => {
  const f = e.target.closest('form[data-confirm]');
  if (f && !window.confirm(f.dataset.confirm)) e.preventDefault();
});
document.addEventListener('click', (e) => {
  const c = e.target.closest('[data-copy]');
  if (c) {
    const el = document.querySelector(c.dataset.copy);
    if (el && navigator.clipboard) navigator.clipboard.writeText(el.textContent.trim()).then(() => { c.textContent = 'Copied'; });
  }
  const b = e.target.closest('[data-back]');
  if (b && history.length > 1) { e.preventDefault(); history.back(); }
});
