// The one definition of a lake table in the Glue catalog, in the Glue API's own shape (TableInput): read by
// the runtime (functions/lib/search ensureLakeTable, through CreateTable/UpdateTable) and by the deployment
// (infra/search: AWS::Glue::Table, whose TableInput has the same names). A change of partition projection,
// location template or serde is made here once, so save-time and deploy-time tables cannot drift.
//   s3://<bucket>/<database>/<table>/year=YYYY/month=MM/day=DD/hour=HH/<name>.json.gz (core/lake/layout)
import { PARTITION_KEYS, type LakeTableSpec } from '../search/lake-tables';

export interface GlueColumn {
  readonly Name: string;
  readonly Type: string;
  readonly Comment?: string;
}

export interface GlueTableDefinition {
  readonly Name: string;
  readonly TableType: 'EXTERNAL_TABLE';
  readonly Parameters: Record<string, string>;
  readonly PartitionKeys: GlueColumn[];
  readonly StorageDescriptor: {
    readonly Location: string;
    readonly InputFormat: string;
    readonly OutputFormat: string;
    readonly Compressed: boolean;
    readonly SerdeInfo: { readonly SerializationLibrary: string; readonly Parameters: Record<string, string> };
    readonly Columns: GlueColumn[];
  };
}

/** The first year partition projection answers for; events before it are not in the lake's range. */
export const PROJECTION_FIRST_YEAR = 2020;
export const PROJECTION_LAST_YEAR = 2100;

const column = (c: { name: string; type: string; comment?: string }): GlueColumn => ({
  Name: c.name,
  Type: c.type,
  ...(c.comment ? { Comment: c.comment } : {}),
});

/**
 * A lake table: NDJSON (gzip) read by the OpenX JSON serde, partitions on year/month/day/hour projected (no
 * crawler, no partitions to add), the log type kept in the table's parameters (`caracal.logType`).
 */
export function glueTableDefinition(table: LakeTableSpec, bucketName: string): GlueTableDefinition {
  const location = `s3://${bucketName}/${table.database}/${table.name}/`;
  return {
    Name: table.name,
    TableType: 'EXTERNAL_TABLE',
    Parameters: {
      classification: 'json',
      'caracal.logType': table.logType,
      'projection.enabled': 'true',
      'projection.year.type': 'integer',
      'projection.year.range': `${PROJECTION_FIRST_YEAR},${PROJECTION_LAST_YEAR}`,
      'projection.month.type': 'integer',
      'projection.month.range': '1,12',
      'projection.month.digits': '2',
      'projection.day.type': 'integer',
      'projection.day.range': '1,31',
      'projection.day.digits': '2',
      'projection.hour.type': 'integer',
      'projection.hour.range': '0,23',
      'projection.hour.digits': '2',
      'storage.location.template': `${location}year=\${year}/month=\${month}/day=\${day}/hour=\${hour}`,
    },
    PartitionKeys: PARTITION_KEYS.map(column),
    StorageDescriptor: {
      Location: location,
      InputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
      OutputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
      Compressed: true,
      SerdeInfo: {
        SerializationLibrary: 'org.openx.data.jsonserde.JsonSerDe',
        Parameters: { 'ignore.malformed.json': 'true', 'timestamp.formats': 'yyyy-MM-dd HH:mm:ss.SSSSSSSSS' },
      },
      Columns: table.columns.map(column),
    },
  };
}
