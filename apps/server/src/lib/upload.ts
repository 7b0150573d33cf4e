import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';
import { processImage, type ImageKind } from './images.ts';
import type { UploadStore } from './upload-store.ts';

export const IMAGE_FIELD = 'image';

const NOT_AN_IMAGE_UPLOAD = `Send the image as multipart/form-data in the field "${IMAGE_FIELD}"`;

/** Reads the multipart field `image`, processes it and stores it; answers the public href. */
export async function receiveImage(
  request: FastifyRequest,
  uploads: UploadStore,
  kind: ImageKind,
): Promise<string> {
  if (!request.isMultipart()) throw badRequest(NOT_AN_IMAGE_UPLOAD, IMAGE_FIELD);
  const file = await request.file();
  if (!file || file.fieldname !== IMAGE_FIELD) throw badRequest(NOT_AN_IMAGE_UPLOAD, IMAGE_FIELD);
  // toBuffer() throws a 413 once the stream passes the configured file size limit.
  const input = await file.toBuffer();
  const { bytes, extension } = await processImage(input, kind).catch((error: unknown) => {
    // What processImage refuses is the uploaded image's fault: it names the field here.
    if (error instanceof AppError && error.code === 'validation')
      throw badRequest(error.message, IMAGE_FIELD);
    throw error;
  });
  return uploads.save(bytes, extension);
}
