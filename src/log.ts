/** Stdout carries MCP messages only; every log line goes to stderr. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function stderrLogger(redact: (text: string) => string = (t) => t): Logger {
  const write = (level: string, message: string) => {
    process.stderr.write(`proxmox-ve-mcp ${level}: ${redact(message)}\n`);
  };
  return {
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** The same logger with every message rewritten first, e.g. prefixed with the host it is about. */
export function mapLogger(log: Logger, rewrite: (message: string) => string): Logger {
  return {
    info: (m) => log.info(rewrite(m)),
    warn: (m) => log.warn(rewrite(m)),
    error: (m) => log.error(rewrite(m)),
  };
}
