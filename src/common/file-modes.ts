// Permissions of everything a broker writes to its data dir: partition logs and their indexes, checkpoints, the
// embedded coordination store, metadata snapshots. Records are users' data and the store holds ACLs and quotas, so
// files are created owner-only (0600) and folders 0700; the operator's umask still applies on top (it can only
// take bits away). Existing files keep the mode they have.
export const DATA_FILE_MODE = 0o600;
export const DATA_DIR_MODE = 0o700;
