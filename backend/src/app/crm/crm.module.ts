import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { CiviCrmHttpClient } from './civicrm-http.client';
import { CrmCheckInsGateway } from './check-ins.gateway';
import { CrmContactsGateway } from './contacts.gateway';
import { CrmFilesGateway } from './files.gateway';
import { CRM_CLIENT, type CrmClient } from './crm-client';
import { SiteMetadataCache } from './site-metadata.cache';
import { CrmSiteService } from './crm-site.service';
import { createDemoModel, STUB_DEMO_CHECKSUM } from './in-memory/demo-data';
import { InMemoryCrmClient } from './in-memory/in-memory-crm.client';
import { wrapForSiteGroupNames } from './site-group-names';
import { CrmSiteGateway } from './site.gateway';

/**
 * The CRM behind one interface: CiviCRM over HTTP when configured, otherwise (outside
 * production; the configuration refuses it in production) the in-memory model with demo data.
 */
@Global()
@Module({
  providers: [
    {
      provide: CRM_CLIENT,
      inject: [APP_CONFIG, MetricsService],
      useFactory: (config: AppConfig, metrics: MetricsService): CrmClient =>
        config.crm
          ? wrapForSiteGroupNames(new CiviCrmHttpClient(config.crm, metrics), config.crm.customGroups)
          : new InMemoryCrmClient(createDemoModel({ stubChecksum: STUB_DEMO_CHECKSUM })),
    },
    SiteMetadataCache,
    CrmSiteService,
    CrmCheckInsGateway,
    CrmContactsGateway,
    CrmFilesGateway,
    CrmSiteGateway,
  ],
  exports: [
    CRM_CLIENT,
    CrmCheckInsGateway,
    CrmContactsGateway,
    CrmFilesGateway,
    CrmSiteGateway,
    SiteMetadataCache,
    CrmSiteService,
  ],
})
export class CrmModule {}
