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
// The origins field matters only for browser keys: show it when that type is chosen.
document.documentElement.classList.add('js');
const syncOrigins = () => {
  const f = document.getElementById('create-key');
  if (!f) return;
  const browser = f.querySelector('input[name=type]:checked')?.value === 'browser';
  f.querySelector('.origins-field')?.classList.toggle('hidden', !browser);
};
document.addEventListener('change', (e) => { if (e.target.name === 'type') syncOrigins(); });
document.addEventListener('DOMContentLoaded', syncOrigins);
