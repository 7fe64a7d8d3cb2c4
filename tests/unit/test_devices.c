/* test_devices.c - what a device is, from sysfs and udevd's database, in a tree of
 * our own (udevd does not run on the test machine, so the live one has no database). */
#include "unit.h"

#include <string.h>
#include <unistd.h>

#include "devices.h"
#include "partitions.h"
#include "sources_helpers.h"

static char root[] = "/tmp/ioscope-test.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	write_file(path, text);
}

static int make_tree(void **state)
{
	strcpy(root, "/tmp/ioscope-test.XXXXXX");   /* mkdtemp filled in the last one */
	if (!mkdtemp(root))
		return -1;
	put("sys/block/sda/device/model", "Samsung SSD 86\n");   /* SCSI's 16 columns */
	put("sys/class/block/sda/dev", "8:0\n");
	put("sys/block/sda/sda1/partition", "1\n");
	put("sys/class/block/sda1/dev", "8:1\n");
	put("sys/block/vdb/serial", "virtio-serial\n");
	put("sys/class/block/vdb/dev", "252:16\n");
	/* udevd's record: the full model, the serial sysfs lacks; look-alike keys first */
	put("run/udev/data/b8:0", "S:disk/by-id/ata-Samsung_SSD_860_S3Z123\n"
				  "E:ID_MODEL_ENC=Samsung\\x20SSD\\x20860\n"
				  "E:ID_SERIAL=Samsung_SSD_860_S3Z123\n"
				  "E:ID_MODEL=Samsung_SSD_860\n"
				  "E:ID_SERIAL_SHORT=S3Z123\n"
				  "E:ID_MODEL_X=\n");
	put("run/udev/data/b252:16", "E:ID_PATH=pci-0000:00:05.0\n");
	return 0;
}

static int remove_tree(void **state)
{
	rm_tree(root);
	return 0;
}

static void test_udev_database_then_sysfs(void **state)
{
	struct device_catalog c;
	struct error err;
	assert_int_equal(devices_catalog_open(&c, root, &err), 0);
	struct device_info infos[3] = { { .name = "sda" }, { .name = "sda1" }, { .name = "vdb" } };
	devices_describe(&c, NULL, infos, 3);
	assert_true(infos[0].is_disk);
	assert_false(infos[0].is_partition);
	assert_string_equal(infos[0].model, "Samsung_SSD_860");   /* udev's before sysfs's */
	assert_string_equal(infos[0].serial, "S3Z123");           /* _SHORT before ID_SERIAL */
	assert_true(infos[1].is_partition);
	assert_string_equal(infos[1].parent, "sda");
	assert_string_equal(infos[1].model, "");                  /* no record for 8:1 */
	assert_true(infos[2].is_disk);
	assert_string_equal(infos[2].model, "");                  /* a record without them */
	assert_string_equal(infos[2].serial, "virtio-serial");    /* then sysfs */
	assert_false(devices_hotplug_pending(&c));                /* no uevents under a root */
	devices_catalog_close(&c);
}

static void link_at(const char *target, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	assert_int_equal(symlink(target, path), 0);
}

/* As the live sysfs lays them out: /sys/block and /sys/class/block hold links into
 * /sys/devices, and a partition's directory is in its disk's.  A link whose target is
 * no directory is no disk. */
static void test_links_like_the_kernel(void **state)
{
	put("sys/devices/pci0/block/vdc/vdc1/partition", "1\n");
	put("sys/devices/virtual/block/loop3/size", "0\n");
	put("sys/class/block/.keep", "");
	link_at("../devices/pci0/block/vdc", "sys/block/vdc");
	link_at("../devices/virtual/block/loop3", "sys/block/loop3");
	link_at("../devices/gone", "sys/block/gone");
	link_at("../../devices/pci0/block/vdc/vdc1", "sys/class/block/vdc1");
	struct device_catalog c;
	struct error err;
	assert_int_equal(devices_catalog_open(&c, root, &err), 0);
	struct device_info infos[4] = { { .name = "vdc" }, { .name = "vdc1" }, { .name = "loop3" },
					{ .name = "gone" } };
	devices_describe(&c, NULL, infos, 4);
	assert_true(infos[0].is_disk);
	assert_true(infos[1].is_partition);
	assert_string_equal(infos[1].parent, "vdc");
	assert_true(infos[2].is_disk);
	assert_false(infos[3].is_disk);
	devices_catalog_close(&c);
}

/* A loop device that /proc/partitions leaves out has no file: nothing of it is read (its
 * loop/ group here says otherwise on purpose, to show it is not opened); listed, it is. */
static void test_loop_left_out_is_not_read(void **state)
{
	put("sys/block/loop3/loop/backing_file", "/img\n");
	struct device_catalog c;
	struct error err;
	struct partition_list media;
	partition_list_init(&media);
	assert_int_equal(devices_catalog_open(&c, root, &err), 0);
	struct device_info info = { .name = "loop3" };
	static const char without[] = "major minor  #blocks  name\n\n 7 1 32768 loop1\n";
	assert_int_equal(partition_list_parse(&media, without, sizeof without - 1, &err), 0);
	devices_describe(&c, &media, &info, 1);
	assert_true(info.is_disk);
	assert_false(info.loop.present);
	static const char with[] = "major minor  #blocks  name\n\n 7 3 32768 loop3\n";
	assert_int_equal(partition_list_parse(&media, with, sizeof with - 1, &err), 0);
	devices_describe(&c, &media, &info, 1);
	assert_true(info.loop.present);
	assert_string_equal(info.loop.file, "/img");
	partition_list_close(&media);
	devices_catalog_close(&c);
}

/* /proc/partitions leaves out a disk of no capacity: a loop device it leaves out has no
 * file.  Only whole loop devices are judged, and only from a list read. */
static void test_partition_list(void **state)
{
	static const char text[] = "major minor  #blocks  name\n\n"
				   " 254        0  268435456 vda\n"
				   " 254        1     102400 vda1\n"
				   "   7        1      32768 loop1\n"
				   " 259        5      20480 loop1p1\n";
	struct partition_list p;
	struct error err;
	partition_list_init(&p);
	assert_false(partition_list_loop_empty(&p, "loop0"));   /* nothing read */
	assert_int_equal(partition_list_parse(&p, text, sizeof text - 1, &err), 0);
	assert_int_equal(p.n, 4);
	assert_string_equal(p.names[0], "vda");
	assert_string_equal(p.names[3], "loop1p1");
	assert_true(partition_list_loop_empty(&p, "loop0"));
	assert_false(partition_list_loop_empty(&p, "loop1"));
	assert_false(partition_list_loop_empty(&p, "loop0p1"));   /* a partition */
	assert_false(partition_list_loop_empty(&p, "sdb"));       /* removable, maybe */
	assert_false(partition_list_loop_empty(&p, "loop"));
	partition_list_stale(&p);
	assert_false(partition_list_loop_empty(&p, "loop0"));
	partition_list_close(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_udev_database_then_sysfs, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_links_like_the_kernel, make_tree, remove_tree),
		cmocka_unit_test_setup_teardown(test_loop_left_out_is_not_read, make_tree, remove_tree),
		cmocka_unit_test(test_partition_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
