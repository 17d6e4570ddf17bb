import { Module } from '@nestjs/common';
import { FormDataService } from './form-data.service';
import { FormController } from './form.controller';
import { SubmissionLock } from './submission-lock';
import { OrganizationChoicesService } from './organization-choices.service';
import { OrganizationsController } from './organizations.controller';
import { OrganizerController } from './organizer.controller';
import { SubmitService } from './submit.service';
import { SubmittedFiles } from './submitted-files';
import { CheckInsModule } from '../check-ins/check-ins.module';

/** GET /api/data and POST /api/submit: the owner's check-in form; GET /api/organizer for its help lines; GET /api/organizations to choose a co-op. */
@Module({
  imports: [CheckInsModule],
  controllers: [FormController, OrganizerController, OrganizationsController],
  providers: [FormDataService, SubmitService, SubmissionLock, SubmittedFiles, OrganizationChoicesService],
})
export class FormModule {}
