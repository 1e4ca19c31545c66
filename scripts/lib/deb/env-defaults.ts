// /etc/default/shortener, the .deb's conffile: every setting the service reads from its environment,
// commented out, written from src/config.ts's FLAGS so that a new flag appears here by itself.

import { environmentVariable, FLAGS } from "../../../src/config.ts";

/**
 * The global flags parseArgs also takes from the environment: those of no command, except --help
 * and --version (asking what the program is never comes from the environment).
 */
export function environmentFlags(): { name: string; variable: string; help: string; isSwitch: boolean }[] {
  return FLAGS.filter((f) => f.command === undefined && f.name !== "help" && f.name !== "version").map((f) => ({
    name: f.name,
    variable: environmentVariable(f.name),
    help: f.help,
    isSwitch: !f.value,
  }));
}

const HEADER = `# Settings of the shortener service, read by its systemd unit (EnvironmentFile=). Each line
# SHORTENER_<FLAG>=value sets what --<flag> sets (shortener --help, man shortener); every one is
# listed below, commented out, with what it does. Uncomment and change, then:
#   systemctl restart shortener
# No quotes are needed around a value. The data is in /var/lib/shortener (systemd's StateDirectory,
# a link to /var/lib/private/shortener): the service cannot write anywhere else.
# Secrets do not belong here (this file is readable by everyone): the OIDC client secret and an
# admin key are systemd credentials (docs/sign-in.md: Signing in, Managing links; systemctl edit shortener).
`;

/** Wraps a help text into "# " lines of at most width characters. */
function commentLines(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > width && line !== "#") {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

export function environmentDefaults(): string {
  const blocks = environmentFlags().map((f) => {
    // A switch is on with 1, true or yes (parseArgs); anything else, or the line commented, is off.
    const help = f.isSwitch ? `${f.help} (a switch: 1 turns it on)` : f.help;
    return [...commentLines(help), `#${f.variable}=`].join("\n");
  });
  return `${HEADER}\n${blocks.join("\n\n")}\n`;
}
