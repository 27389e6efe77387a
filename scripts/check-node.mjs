// Plain JavaScript that any Node runs: the portal needs Node 22.12 or newer (its SQLite driver
// crashes on older ones without a word), so each command checks first and says so in one line.
const needed = [22, 12];
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);

if (major < needed[0] || (major === needed[0] && minor < needed[1])) {
  console.error(
    `The VMS portal needs Node ${needed.join('.')} or newer (Node 24 LTS recommended); this is Node ${process.versions.node}. Install Node 24 (for example: nvm install 24) and run the command again.`,
  );
  process.exit(1);
}
