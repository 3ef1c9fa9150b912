/**
 * Shared by the TUI benchmarks and the tmux end-to-end tests: a 20 KB
 * markdown answer (paragraphs, a 250-line code block, a list, a table) in
 * which every line carries a unique marker, so scrollback can be checked for
 * lines shown twice or lost.
 */
export function bigAnswer(): { text: string; markers: string[] } {
  const markers: string[] = [];
  const parts: string[] = ['# Report'];
  for (let i = 0; i < 40; i++) {
    const m = `para${String(i).padStart(3, '0')}`;
    markers.push(m);
    parts.push(`${m} has **bold** and \`code\` in a sentence that is long enough to matter.`);
  }
  const code: string[] = [];
  for (let i = 0; i < 250; i++) {
    const m = `codeline${String(i).padStart(3, '0')}`;
    markers.push(m);
    code.push(`const ${m} = compute(${i}, options); // step ${i} of the pipeline`);
  }
  parts.push(`\`\`\`ts\n${code.join('\n')}\n\`\`\``);
  for (let i = 0; i < 10; i++) {
    const m = `item${String(i).padStart(3, '0')}`;
    markers.push(m);
    parts.push(`- ${m} in a list`);
  }
  parts.push('| name | value |\n|---|---|\n| tablerow001 | 1 |\n| tablerow002 | 2 |');
  markers.push('tablerow001', 'tablerow002');
  for (let i = 40; i < 70; i++) {
    const m = `para${String(i).padStart(3, '0')}`;
    markers.push(m);
    parts.push(`${m} closes the answer with a little more text to reach the size.`);
  }
  return { text: parts.join('\n\n'), markers };
}

/** Markers seen other than exactly once: [marker, count]. */
export function miscounted(scrollback: string, markers: string[]): [string, number][] {
  return markers.map((m) => [m, scrollback.split(m).length - 1] as [string, number]).filter(([, n]) => n !== 1);
}
