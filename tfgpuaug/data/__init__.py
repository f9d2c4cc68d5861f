"""Readers producing datasets of encoded images with their labels (classification) or boxes
(detection) for tfgpuaug pipelines: image folders, file lists, TFRecords, COCO, TFDS, WebDataset shards."""
from tfgpuaug.data.coco import coco
from tfgpuaug.data.readers import IMAGE_EXTENSIONS, file_list, image_folder, shard_for
from tfgpuaug.data.tfrecord import detection_tfrecord, tfrecord
from tfgpuaug.data.tfds import tfds
from tfgpuaug.data.webdataset import expand_braces, tar_samples, webdataset

__all__ = ["IMAGE_EXTENSIONS", "coco", "detection_tfrecord", "expand_braces", "file_list", "image_folder", "shard_for",
           "tar_samples", "tfds", "tfrecord", "webdataset"]
