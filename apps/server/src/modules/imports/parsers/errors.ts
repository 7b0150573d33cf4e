/**
 * A problem with the imported file, in words for its owner ("the zip is damaged", "the EPUB has
 * no spine"). Anything else thrown while parsing is a bug and is reported generically.
 */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
}
