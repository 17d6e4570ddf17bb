import { Module } from '@nestjs/common';
import { FormDataService } from './form-data.service';
import { FormController } from './form.controller';
import { SubmitService } from './submit.service';
import { SubmittedFiles } from './submitted-files';
import { UploadModule } from '../upload/upload.module';

/** GET /api/data and POST /api/submit: the owner's check-in form. */
@Module({
  imports: [UploadModule],
  controllers: [FormController],
  providers: [FormDataService, SubmitService, SubmittedFiles],
})
export class FormModule {}
