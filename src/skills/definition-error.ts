/** A skill or agent file that cannot be loaded; the loader turns it into a reported, skipped issue. */
export class DefinitionError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'DefinitionError';
    this.field = field;
  }
}
