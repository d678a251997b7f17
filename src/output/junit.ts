import { sanitizeLine } from '../core/sanitize.js';

export interface JUnitCase {
  name: string;
  outcome: 'pass' | 'fail' | 'skip';
  durationMs: number;
  detail: string;
}

/**
 * Text for an XML attribute: sanitised as for a terminal (a CI page shows it to a person: no
 * bidirectional overrides, controls or invisible characters), then only characters XML allows.
 */
function escapeXml(text: string): string {
  return sanitizeLine(text)
    .replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A JUnit XML report, the format CI systems read test results from. */
export function renderJUnit(suite: string, cases: JUnitCase[], timestamp: Date): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = cases.reduce((sum, item) => sum + item.durationMs, 0);
  const count = (outcome: JUnitCase['outcome']) =>
    cases.filter((item) => item.outcome === outcome).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suite)}" tests="${cases.length}" failures="${count('fail')}" skipped="${count('skip')}" time="${seconds(total)}">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${cases.length}" failures="${count('fail')}" skipped="${count('skip')}" time="${seconds(total)}" timestamp="${timestamp.toISOString()}">`,
  ];
  for (const item of cases) {
    const open = `    <testcase classname="${escapeXml(suite)}" name="${escapeXml(item.name)}" time="${seconds(item.durationMs)}"`;
    if (item.outcome === 'pass') {
      lines.push(`${open}/>`);
    } else if (item.outcome === 'skip') {
      lines.push(
        `${open}>`,
        `      <skipped message="${escapeXml(item.detail)}"/>`,
        '    </testcase>',
      );
    } else {
      lines.push(
        `${open}>`,
        `      <failure message="${escapeXml(item.detail)}"/>`,
        '    </testcase>',
      );
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
