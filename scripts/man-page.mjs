// The man page, petstore.1, made at build time from the help texts the program itself prints
// (every command and every help topic), so it says exactly what --help says.

/** Text as roff shows it literally: backslashes, leading dots and quotes, minus signs. */
function roffText(text) {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A help text as a preformatted block, kept as the terminal shows it. */
function block(text) {
  return `.nf\n${roffText(text.trimEnd())}\n.fi`;
}

const SECTIONS = {
  environment: 'ENVIRONMENT',
  'exit-codes': 'EXIT STATUS',
  output: 'OUTPUT',
  profiles: 'PROFILES',
};

export function manPage({ version, help, commands, topics }) {
  const lines = [
    `.TH PETSTORE 1 "" "petstore-cli ${version}" "User Commands"`,
    '.SH NAME',
    'petstore \\- run the Animal Store service from the command line',
    '.SH SYNOPSIS',
    '.B petstore',
    '[\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    block(help['']),
    '.SH COMMANDS',
  ];
  for (const command of commands) {
    lines.push(`.SS "petstore ${roffText(command)}"`, block(help[command]));
  }
  for (const topic of topics) {
    // The topic's first line names it; the section heading does that here.
    const body = help[`topic:${topic}`].split('\n').slice(2).join('\n');
    lines.push(`.SH ${SECTIONS[topic] ?? topic.toUpperCase()}`, block(body));
  }
  lines.push(
    '.SH FILES',
    '.TP',
    '.I $XDG_CONFIG_HOME/petstore/config.json',
    'profiles and their settings (mode 0600; default ~/.config/petstore; PETSTORE_CONFIG_DIR overrides)',
    '.TP',
    '.I $XDG_DATA_HOME/petstore/sandbox.db',
    "the sandbox profile's data (default ~/.local/share/petstore)",
    '.SH SEE ALSO',
    'The README of the petstore-cli package.',
    '',
  );
  return lines.join('\n');
}
