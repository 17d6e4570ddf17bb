import { Module } from '@nestjs/common';
import { FormDataService } from './form-data.service';
import { FormController } from './form.controller';
import { SubmissionLock } from './submission-lock';
import { SubmitService } from './submit.service';

/** GET /api/data and POST /api/submit: the owner's check-in form. */
@Module({
  controllers: [FormController],
  providers: [FormDataService, SubmitService, SubmissionLock],
})
export class FormModule {}
