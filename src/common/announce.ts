// Start-up lines that are printed whatever the log level (where the broker listens, security warnings): plain text,
// or with BROOK_LOG_FORMAT=json one JSON object a line like the rest of the log.
export function announce(format: 'text' | 'json', level: 'log' | 'warn', message: string): void {
  const stream = level === 'warn' ? process.stderr : process.stdout;
  if (format === 'json') {
    stream.write(`${JSON.stringify({ level, pid: process.pid, timestamp: Date.now(), message, context: 'Broker' })}\n`);
  } else {
    stream.write(`${level === 'warn' ? 'brook: ' : ''}${message}\n`);
  }
}
