// Adds lock-file entries for optional platform packages that the registry mirror here does not
// serve (other OSes and CPUs of @napi-rs/canvas and msgpackr-extract). Without them `npm ci`
// refuses the lock file as out of sync; with them it skips each one as not for this platform.
// Run after any `npm install` that changes the lock file: node .ci/complete-lock.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd'];
const CPU = ['arm64', 'x64', 'arm', 'riscv64', 'ia32'];
let added = 0;
for (const pkg of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const parts = name.split('/').pop().split('-');
    const os = OS.filter((o) => parts.includes(o));
    const cpu = CPU.filter((c) => parts.includes(c));
    if (!os.length || !cpu.length) continue;
    const entry = { version, cpu, os, optional: true };
    if (parts.includes('musl')) entry.libc = ['musl'];
    else if (parts.includes('gnu') || parts.includes('gnueabihf')) entry.libc = ['glibc'];
    lock.packages[key] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lock: ${added} platform entries added`);
