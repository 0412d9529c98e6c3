// Progress on stderr, only when stderr is a terminal (ora loaded only then).
export interface Progress {
  update(text: string): void;
  done(): void;
}

export async function progress(text: string): Promise<Progress> {
  if (!process.stderr.isTTY) return { update() {}, done() {} };
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: process.stderr }).start();
  return { update: (t) => (spinner.text = `${text}: ${t}`), done: () => spinner.stop() };
}
